"""Finding secrets in text and masking them before anything leaves the process."""

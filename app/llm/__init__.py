"""The live_model selector: tool selection and case generation by an external model over the OpenAI API."""

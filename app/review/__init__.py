"""Reviewing one pull request: plan what to audit, run the audit pair, publish comment and check run."""

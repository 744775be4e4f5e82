"""ToolChoice: audits LLM tool definitions and reviews pull requests that change them."""

__version__ = "0.1.0"

"""Reading MCP tool definitions from Go source (mcp-go, the official Go SDK), statically."""

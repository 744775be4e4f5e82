"""Reading MCP tool definitions from Python source (the MCP SDK, FastMCP and their kin), statically."""

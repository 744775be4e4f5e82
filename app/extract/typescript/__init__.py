"""Reading MCP tool definitions from TypeScript and JavaScript source (the MCP SDK, FastMCP, zod), statically."""

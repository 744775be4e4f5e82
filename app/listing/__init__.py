"""Listing a running MCP server's tools: start the repository's server over stdio with the official MCP SDK, ask
`tools/list`, stop it. Only the command line and the Action start servers (in the user's own CI); the App never
starts anything (docs/architecture.md)."""

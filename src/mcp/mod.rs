//! MCP: `briefly mcp` serves briefly's commands as tools; `briefly mcp-proxy` puts the
//! budget stage in front of another MCP server's tool results.

mod framing;
pub mod proxy;
pub mod server;
pub mod tools;

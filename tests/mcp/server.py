"""A small MCP server (the official Python SDK's MCPServer) for the proxy's tests.

Its tools return a small text, a large text (structured too, as MCPServer makes a
`str` result), an image; or misbehave: crash mid-call, or answer with a malformed line.
"""

import base64
import os
import sys
import warnings

import anyio
from mcp import MCPDeprecationWarning
from mcp.server import stdio
from mcp.server.mcpserver import Context, Image, MCPServer

# Logging and roots are 2025-era features the SDK now marks deprecated; the proxy must
# still pass them through, so the test uses them without the noise.
warnings.simplefilter("ignore", MCPDeprecationWarning)

server = MCPServer("briefly-test-server")


@server.tool()
def small() -> str:
    """A short answer."""
    return "hello from the test server"


@server.tool()
def big(lines: int) -> str:
    """`lines` numbered lines of text."""
    return "".join(f"line {i} of the big result\n" for i in range(1, lines + 1))


arrived = 0
all_arrived = anyio.Event()


@server.tool(structured_output=False)
async def medium(lines: int, together: int) -> str:
    """`lines` numbered lines, once `together` calls have arrived (so they overlap)."""
    global arrived
    arrived += 1
    if arrived >= together:
        all_arrived.set()
    await all_arrived.wait()
    return "".join(f"line {i} of a medium result\n" for i in range(1, lines + 1))


@server.tool()
async def chatty(ctx: Context) -> str:
    """Logs, reports progress and asks the client for its roots before answering."""
    await ctx.info("chatty is working")
    await ctx.report_progress(1, 2, "half way")
    roots = await ctx.session.list_roots()
    return "roots: " + ", ".join(str(root.uri) for root in roots.roots)


@server.tool()
def picture() -> Image:
    """A tiny PNG."""
    png = base64.b64decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
    )
    return Image(data=png, format="png")


@server.tool()
def crash() -> str:
    """Exits in the middle of the call."""
    sys.stdout.flush()
    os._exit(3)


@server.tool()
async def garbage(ctx: Context) -> str:
    """Answers with a line that is not JSON, then never answers properly."""
    request_id = ctx.request_id
    id_json = request_id if request_id.lstrip("-").isdigit() else f'"{request_id}"'
    # The SDK serves the wire from a private duplicate of fd 1 (fd 1 itself is diverted
    # to stderr while serving): write there, as a broken server would.
    wire = stdio._claims[1].private_fd
    os.write(wire, b'{"jsonrpc":"2.0","id":' + id_json.encode() + b',"result":{"content":[oops\n')
    await anyio.sleep(3600)
    return "never"


if __name__ == "__main__":
    server.run()

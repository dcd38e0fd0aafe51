"""A collector that takes every batch and does nothing with it, for tail.sh: HTTP/1.1 on 127.0.0.1, keep-alive,
bodies with Content-Length or chunked, each answered 200 at once. A process of its own, so that its work is
not counted in the tracking process (it costs both builds the same).

    python3 sink.py PORTFILE    writes its port to PORTFILE, then serves until killed; counts go to stderr at exit
"""

import asyncio
import signal
import sys

counts = {"requests": 0, "bytes": 0, "chunked": 0}


async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            headers = {}
            for line in head.decode("latin-1").split("\r\n")[1:]:
                if ":" in line:
                    name, value = line.split(":", 1)
                    headers[name.strip().lower()] = value.strip()
            size = 0
            if "content-length" in headers:
                size = int(headers["content-length"])
                await reader.readexactly(size)
            elif headers.get("transfer-encoding", "").lower() == "chunked":
                counts["chunked"] += 1
                while True:
                    line = await reader.readuntil(b"\r\n")
                    length = int(line.split(b";")[0], 16)
                    await reader.readexactly(length + 2)
                    size += length
                    if length == 0:
                        break
            counts["requests"] += 1
            counts["bytes"] += size
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 16\r\n\r\n{\"success\":true}")
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
        pass
    finally:
        writer.close()


async def main() -> None:
    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    with open(sys.argv[1], "w") as file:
        file.write(str(server.sockets[0].getsockname()[1]))
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with server:
        await stop.wait()
    print(f"sink: {counts['requests']} requests ({counts['chunked']} chunked), {counts['bytes']} body bytes", file=sys.stderr)


asyncio.run(main())

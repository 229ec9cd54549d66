"""The web table: a second front end over the match core, served by the project itself.

An aiohttp HTTP and WebSocket server (:mod:`web.server`) shows running matches to browsers
as an SVG board drawn from the pictures' own geometry, and hands what a player clicks to
the match service as a command would. It imports the core, the engine, the catalogues and
the pictures' geometry, never the Discord layer (docs/web.md).
"""

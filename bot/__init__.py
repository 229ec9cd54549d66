"""The Discord front end: slash commands, buttons and messages over the match service."""

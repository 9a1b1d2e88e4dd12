"""The Discord face of the bot: slash commands, views, DMs, threads. Every module here is a cog extension."""

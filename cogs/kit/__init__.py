"""The Discord kit every game's cog is made of: messages and answers, the match buttons, the presenter, the match
cog base, pictures drawn off the event loop and slash command choices made when a cog loads."""

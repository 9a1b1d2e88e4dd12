"""The Discord kit every game's cog is made of: messages and answers, the match buttons, the presenter, the match
cog base."""

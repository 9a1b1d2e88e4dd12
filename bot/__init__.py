"""Air War: a Discord bot for the War family of card games."""

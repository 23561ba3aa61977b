"""Discord components of the bot: custom ids, restart-proof buttons, views built from them."""

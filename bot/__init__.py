"""The Discord bot: slash commands, buttons and rendering on top of the game service in ``wizard``.

``bot`` imports ``wizard``; nothing imports ``bot``.
"""

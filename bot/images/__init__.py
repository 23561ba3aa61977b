"""Pictures for Discord as PNG bytes: a game's scorepad and a score-over-rounds chart.

Pure functions of public data only (R8.1): the players' names and the scored rounds
(:class:`wizard.view.RoundSummary`, e.g. ``TableView.history``), never a hand. Both pictures
are 960 px wide (Discord shows them inline without scaling them down much), on an opaque
dark background that reads in Discord's dark and light themes alike.

The font is DejaVu Sans (regular and bold), shipped in ``bot/fonts`` with its licence, so
nothing depends on the fonts of the machine and every Latin, Greek and Cyrillic name draws
as it is written (``Jürgen``, ``Zoë``, ``Łukasz``, ``Σοφία``, ``Жанна``). What it cannot draw
(emoji, CJK) is folded to a letter it has when Unicode gives one, else dropped, and a name
left empty becomes ``Seat N``. ``font_file`` takes another TrueType file instead (bold is
then drawn with a stroke); the same check keeps what that font can draw.

Text on the pictures comes from :class:`ScorepadLabels` and :class:`ChartLabels` (English
by default), so that a translation layer can pass its own.

Layout helpers (:func:`scorepad_layout`, :func:`chart_layout`) give the boxes and points
the pictures are drawn at, for tests and for anyone placing things on them.
"""

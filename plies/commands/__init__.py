"""What users run: analysis, databases, explain and tree views, validation, tests, the formatter,
the language server and play. ``plies/cli.py`` turns each into a command line verb."""

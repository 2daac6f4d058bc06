"""Records: our JSON-lines game record and importers of other formats (Botzone logs: :mod:`.botzone`)."""

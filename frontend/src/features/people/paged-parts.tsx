/** A change's outcome in words, announced politely (errors use ErrorAlert, announced at once). */

"""Sources of models: zoo (by name), own_code (the user's own file), decoders and their state."""

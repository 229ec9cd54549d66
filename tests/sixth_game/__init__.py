"""A toy sixth board game, defined here and nowhere else, that the whole house must play."""

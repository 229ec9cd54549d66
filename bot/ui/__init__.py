"""Views, dynamic buttons and select menus, and the custom-id format they share."""

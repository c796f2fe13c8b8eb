"""The numbered SQL migrations, shipped as package data so an install finds them."""

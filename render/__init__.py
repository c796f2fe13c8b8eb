"""Pictures: engine views in, PNG bytes out (Pillow)."""

"""Tsume Studio's Qt (PySide6) application."""

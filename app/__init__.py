"""The rasterlab application: the command line, the window and its panel, and the session they drive."""

__version__ = "0.2.0"

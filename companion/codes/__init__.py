"""Printed code stickers: the registry of codes and marker IDs (see ``registry``)."""

from companion.codes.registry import CodeRegistry, Component, load_registry

__all__ = ["CodeRegistry", "Component", "load_registry"]

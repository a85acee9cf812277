"""EPUB: the OPF package read from the ZIP with zipfile and lxml; each chapter in spine order
through the HTML loader, as sections of the book."""

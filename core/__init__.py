"""What every app of the site shares, below them all: the error type and its codes
(``errors``), the socket base (``sockets``), sending through the channel layer once data is
committed (``layer``), and the i18n helpers (``i18n``, ``django_texts``, ``formats``).
Imports no app of the project (docs/architecture.md, "Layers")."""

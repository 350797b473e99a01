"""The settings of the servers and ``manage.py`` runs the tests start (tests/live_server.py):
the site's own, with a fast password hasher. PBKDF2's million rounds cost a third of a second of
CPU for each sign-up and log-in, and the browser tests make well over a hundred of them; what
they test is the site, not the hasher (tests/accounts/test_password.py checks the real one)."""

from spite.settings import *  # noqa: F403  (the site's settings, all of them)

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

"""factory_boy factories for accounts."""

import factory
from factory.django import DjangoModelFactory

from accounts.models import User

PASSWORD = "correct-horse-battery-9"


class UserFactory(DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.org")
    display_name = factory.Sequence(lambda n: f"Player {n}")
    country = "IT"
    password = factory.django.Password(PASSWORD)

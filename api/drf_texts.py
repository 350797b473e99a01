"""Django REST framework's own texts that an API user meets (authentication, permissions, a
missing object, a method or media type refused, and the field errors of our serializers'
fields), listed so that `make messages` puts them in our catalogs: DRF has no Bengali or Burmese
catalog. Our catalogs come first (LOCALE_PATHS), so they answer for DRF in every language.
DRF fills the `{braces}` after translating: a translation keeps them exactly. Nothing imports
this module; tests/api/test_drf_texts.py checks that DRF still has each text."""

from django.utils.translation import gettext_noop

DRF_TEXTS = (
    # rest_framework/exceptions.py
    gettext_noop("Invalid input."),
    gettext_noop("Malformed request."),
    gettext_noop("Incorrect authentication credentials."),
    gettext_noop("Authentication credentials were not provided."),
    gettext_noop("You do not have permission to perform this action."),
    gettext_noop("Not found."),
    gettext_noop('Method "{method}" not allowed.'),
    gettext_noop("Could not satisfy the request Accept header."),
    gettext_noop('Unsupported media type "{media_type}" in request.'),
    gettext_noop("A server error occurred."),
    # rest_framework/fields.py and serializers.py: the fields our serializers use
    gettext_noop("This field is required."),
    gettext_noop("This field may not be null."),
    gettext_noop("Must be a valid boolean."),
    gettext_noop("Not a valid string."),
    gettext_noop("This field may not be blank."),
    gettext_noop("Ensure this field has no more than {max_length} characters."),
    gettext_noop("Ensure this field has at least {min_length} characters."),
    gettext_noop('Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'),
    gettext_noop("A valid integer is required."),
    gettext_noop("A valid number is required."),
    gettext_noop("Ensure this value is less than or equal to {max_value}."),
    gettext_noop("Ensure this value is greater than or equal to {min_value}."),
    gettext_noop("String value too large."),
    gettext_noop('"{input}" is not a valid choice.'),
    gettext_noop('Expected a list of items but got type "{input_type}".'),
    gettext_noop("This list may not be empty."),
    gettext_noop("Ensure this field has at least {min_length} elements."),
    gettext_noop("Ensure this field has no more than {max_length} elements."),
    gettext_noop('Expected a dictionary of items but got type "{input_type}".'),
    gettext_noop("This dictionary may not be empty."),
    gettext_noop("Invalid data. Expected a dictionary, but got {datatype}."),
)

# ruff: noqa: E501, RUF001  (Django's texts, exactly: long lines and typographic quotes)
"""The Django admin's own texts that a league moderator meets (the index, a change list with its
filters, search and actions, a change form, the delete confirmation, the history, logging out and
changing the password) and the user form's field names, listed so that `make messages` puts them
in our catalogs: Django's Burmese and Bengali admin catalogs lack most of them. Our catalogs come
first (LOCALE_PATHS), so Vietnamese, Spanish and Italian keep Django's translation, in the site's
register. Nothing imports this module; tests/test_catalogs.py checks each is still Django's text."""

from django.utils.translation import gettext_noop, ngettext_lazy

ADMIN_TEXTS = (
    gettext_noop("Site administration"),
    gettext_noop("Django site admin"),
    gettext_noop("Django administration"),
    gettext_noop("%(app)s administration"),
    gettext_noop("Log in"),
    gettext_noop("Log out"),
    gettext_noop("Welcome,"),
    gettext_noop("View site"),
    gettext_noop("Documentation"),
    gettext_noop("Change password"),
    gettext_noop("Skip to main content"),
    gettext_noop("Breadcrumbs"),
    gettext_noop("Home"),
    gettext_noop("Toggle navigation"),
    gettext_noop("Sidebar"),
    gettext_noop("Start typing to filter…"),
    gettext_noop("Filter navigation items"),
    gettext_noop("Toggle theme (current theme: auto)"),
    gettext_noop("Toggle theme (current theme: light)"),
    gettext_noop("Toggle theme (current theme: dark)"),
    gettext_noop("Models in the %(name)s application"),
    gettext_noop("Model name"),  # the index's column headings, read by screen readers
    gettext_noop("Add link"),
    gettext_noop("Change or view list link"),
    gettext_noop("Add"),
    gettext_noop("View"),
    gettext_noop("Change"),
    gettext_noop("You don’t have permission to view or edit anything."),
    gettext_noop("Recent actions"),
    gettext_noop("My actions"),
    gettext_noop("None available"),
    gettext_noop("Added:"),
    gettext_noop("Changed:"),
    gettext_noop("Deleted:"),
    gettext_noop("Unknown content"),
    gettext_noop("Select %s"),
    gettext_noop("Select %s to change"),
    gettext_noop("Select %s to view"),
    gettext_noop("Add %s"),
    gettext_noop("Change %s"),
    gettext_noop("View %s"),
    gettext_noop("Add %(name)s"),
    gettext_noop("Search"),
    ngettext_lazy("%(counter)s result", "%(counter)s results", "n"),
    gettext_noop("%(full_result_count)s total"),
    gettext_noop("Show all"),
    gettext_noop("Filter"),
    gettext_noop("Hide counts"),
    gettext_noop("Show counts"),
    gettext_noop("Clear all filters"),
    gettext_noop(" By %(filter_title)s "),
    gettext_noop("All"),
    gettext_noop("Yes"),
    gettext_noop("No"),
    gettext_noop("Unknown"),
    gettext_noop("Any date"),
    gettext_noop("Today"),
    gettext_noop("Past 7 days"),
    gettext_noop("This month"),
    gettext_noop("This year"),
    gettext_noop("No date"),
    gettext_noop("Has date"),
    gettext_noop("Empty"),
    gettext_noop("Not empty"),
    gettext_noop("All dates"),
    gettext_noop("Action:"),
    gettext_noop("Run the selected action"),
    gettext_noop("Go"),
    gettext_noop("Click here to select the objects across all pages"),
    gettext_noop("Select all %(total_count)s %(module_name)s"),
    gettext_noop("Clear selection"),
    ngettext_lazy("%(total_count)s selected", "All %(total_count)s selected", "n"),
    gettext_noop("0 of %(cnt)s selected"),
    gettext_noop("Select all objects on this page for an action"),
    gettext_noop("Select this object for an action - {}"),
    gettext_noop(
        "Items must be selected in order to perform actions on them. No items have been changed."
    ),
    gettext_noop("No action selected."),
    ngettext_lazy(
        "%(count)s %(name)s was changed successfully.",
        "%(count)s %(name)s were changed successfully.",
        "n",
    ),
    gettext_noop("Remove from sorting"),
    gettext_noop("Sorting priority: %(priority_number)s"),
    gettext_noop("Toggle sorting"),
    gettext_noop("Save"),
    gettext_noop("Save as new"),
    gettext_noop("Save and add another"),
    gettext_noop("Save and continue editing"),
    gettext_noop("Save and view"),
    gettext_noop("Close"),
    gettext_noop("Delete"),
    gettext_noop("Delete?"),
    gettext_noop("History"),
    gettext_noop("View on site"),
    ngettext_lazy("Please correct the error below.", "Please correct the errors below.", "n"),
    gettext_noop("Add another %(verbose_name)s"),
    gettext_noop("Remove"),
    gettext_noop("Change selected %(model)s"),
    gettext_noop("Add another %(model)s"),
    gettext_noop("Delete selected %(model)s"),
    gettext_noop("View selected %(model)s"),
    gettext_noop("Hold down “Control”, or “Command” on a Mac, to select more than one."),
    gettext_noop("None"),
    gettext_noop("Date:"),
    gettext_noop("Time:"),
    gettext_noop("Lookup"),
    gettext_noop("Currently:"),
    gettext_noop("Change:"),
    gettext_noop("The {name} “{obj}” was added successfully."),
    gettext_noop("You may edit it again below."),
    gettext_noop("The {name} “{obj}” was added successfully. You may add another {name} below."),
    gettext_noop("The {name} “{obj}” was changed successfully. You may edit it again below."),
    gettext_noop("The {name} “{obj}” was changed successfully. You may add another {name} below."),
    gettext_noop("The {name} “{obj}” was changed successfully."),
    gettext_noop("The %(name)s “%(obj)s” was deleted successfully."),
    gettext_noop("%(name)s with ID “%(key)s” doesn’t exist. Perhaps it was deleted?"),
    gettext_noop("Delete selected %(verbose_name_plural)s"),
    gettext_noop("Successfully deleted %(count)d %(items)s."),
    gettext_noop("Cannot delete %(name)s"),
    gettext_noop("Delete multiple objects"),
    gettext_noop(
        "Deleting the %(object_name)s '%(escaped_object)s' would result in deleting related objects, but your account doesn't have permission to delete the following types of objects:"
    ),
    gettext_noop(
        "Deleting the %(object_name)s '%(escaped_object)s' would require deleting the following protected related objects:"
    ),
    gettext_noop(
        'Are you sure you want to delete the %(object_name)s "%(escaped_object)s"? All of the following related items will be deleted:'
    ),
    gettext_noop(
        "Deleting the selected %(objects_name)s would result in deleting related objects, but your account doesn't have permission to delete the following types of objects:"
    ),
    gettext_noop(
        "Deleting the selected %(objects_name)s would require deleting the following protected related objects:"
    ),
    gettext_noop(
        "Are you sure you want to delete the selected %(objects_name)s? All of the following objects and their related items will be deleted:"
    ),
    gettext_noop(
        "Deleting %(class_name)s %(instance)s would require deleting the following protected related objects: %(related_objects)s"
    ),
    gettext_noop("Summary"),
    gettext_noop("Objects"),
    gettext_noop("Yes, I’m sure"),
    gettext_noop("No, take me back"),
    gettext_noop("Change history: %s"),
    gettext_noop("Date/time"),
    gettext_noop("User"),
    gettext_noop("Action"),
    gettext_noop(
        "This object doesn’t have a change history. It probably wasn’t added via this admin site."
    ),
    gettext_noop("Addition"),
    gettext_noop("Deletion"),
    gettext_noop("Added."),
    gettext_noop("and"),
    gettext_noop("No fields changed."),
    gettext_noop("Added {name} “{object}”."),
    gettext_noop("Changed {fields} for {name} “{object}”."),
    gettext_noop("Changed {fields}."),
    gettext_noop("Deleted {name} “{object}”."),
    gettext_noop(
        "Please enter the correct %(username)s and password for a staff account. Note that both fields may be case-sensitive."
    ),
    gettext_noop(
        "You are authenticated as %(username)s, but are not authorized to access this page. Would you like to login to a different account?"
    ),
    gettext_noop("Page not found"),
    gettext_noop("We’re sorry, but the requested page could not be found."),
    gettext_noop("Thanks for spending some quality time with the web site today."),
    gettext_noop("Log in again"),
    gettext_noop("Password change"),
    gettext_noop("Your password was changed."),
    gettext_noop(
        "Please enter your old password, for security’s sake, and then enter your new password twice so we can verify you typed it in correctly."
    ),
    gettext_noop("Change my password"),
    gettext_noop("Authentication and Authorization"),
    gettext_noop("staff status"),
    gettext_noop("superuser status"),
    gettext_noop("last login"),
    gettext_noop("date joined"),
    gettext_noop("groups"),
    gettext_noop("user permissions"),
    gettext_noop("first name"),
    gettext_noop("last name"),
    gettext_noop("Designates whether the user can log into this admin site."),
    gettext_noop(
        "Designates whether this user should be treated as active. Unselect this instead of deleting accounts."
    ),
    gettext_noop(
        "Designates that this user has all permissions without explicitly assigning them."
    ),
    gettext_noop(
        "The groups this user belongs to. A user will get all permissions granted to each of their groups."
    ),
    gettext_noop("Specific permissions for this user."),
)

"""``django.contrib.admin`` with the site's ``AdminSite`` (``core.admin.SiteAdmin``) as
``admin.site``; apart from ``core/admin.py`` because an app config is imported before the
models it would load."""

from django.contrib.admin.apps import AdminConfig


class SiteAdminConfig(AdminConfig):
    default_site = "core.admin.SiteAdmin"

from django.contrib import admin

from leagues.models import League


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ("name",)}

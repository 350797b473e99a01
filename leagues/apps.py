from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leagues"
    verbose_name = _("Leagues")

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from accounts import hooks as accounts_hooks
        from core.admin import access_register
        from games import hooks
        from leagues import permissions, selectors, services
        from leagues.models import Membership
        from leagues.tournaments import services as tournaments

        # Every ranked match is opened under a league's terms; a finished one is rated with
        # its result (same transaction), and its tournament pairing takes the result there
        # too; the round closes, and the next is paired, once that has committed.
        # A league's moderators reach the admin (scoped to their leagues) without being staff.
        access_register(permissions.admin_access)
        hooks.ranked_terms_register(services.ranked_terms)
        hooks.match_finished_register(services.match_rate)
        hooks.match_finished_register(tournaments.tournament_match_finished)
        hooks.match_finished_register(tournaments.tournament_round_close_after, on_commit=True)
        # An entrant who aborts their tournament match forfeits it.
        hooks.match_aborted_register(tournaments.tournament_match_aborted)
        hooks.match_aborted_register(tournaments.tournament_round_close_after, on_commit=True)
        # A member who leaves or is banned, and a deleted account, leave their tournaments.
        post_save.connect(
            tournaments.membership_withdraws, sender=Membership, dispatch_uid="withdraws"
        )
        accounts_hooks.account_deleted_register(tournaments.tournaments_withdraw_user)
        # A player's profile shows their record, league ratings and latest matches.
        accounts_hooks.profile_section_register("leagues/_profile.html", selectors.profile_section)

"""Games: the state frame, the move log, posting a move."""

from __future__ import annotations

from rest_framework import serializers

from games.services.inputs import MAX_MOVE_ID, MAX_MOVE_TEXT


class GameStateSerializer(serializers.Serializer):
    """The ``state`` frame of docs/protocol.md, seen by the requester (a seat or a spectator)."""

    type = serializers.CharField()
    game = serializers.DictField(help_text="id, number, status, outcome, first_player.")
    version = serializers.IntegerField()
    last_moves = serializers.ListField(child=serializers.DictField())
    match = serializers.DictField()
    spectators = serializers.IntegerField()
    view = serializers.DictField(help_text="The engine's view for this viewer: no hidden cards.")
    you = serializers.IntegerField(allow_null=True, help_text="Your seat; null for a spectator.")
    can_undo = serializers.BooleanField()
    can_abort = serializers.BooleanField()
    can_hint = serializers.BooleanField(
        help_text="Whether you may ask for a hint now (a casual game against a bot, your turn)."
    )


class MoveRowSerializer(serializers.Serializer):
    ply = serializers.IntegerField()
    seat = serializers.IntegerField()
    kind = serializers.CharField()
    text = serializers.CharField()
    undoes = serializers.IntegerField()


class MoveInSerializer(serializers.Serializer):
    """The body's schema; ``games.services.move_input`` checks it, as on the game socket."""

    move = serializers.CharField(max_length=MAX_MOVE_TEXT, help_text="A move such as h:7D-c2.")
    version = serializers.IntegerField(
        help_text="The version it was chosen at (a JSON integer; another than the game's is "
        "stale_version)."
    )
    id = serializers.CharField(
        min_length=1,
        max_length=MAX_MOVE_ID,
        help_text="The client's move id, 1 to 64 printable characters: a resend with the same "
        "id returns the same result.",
    )


class MoveOutSerializer(serializers.Serializer):
    ply = serializers.IntegerField()
    seat = serializers.IntegerField()
    move = serializers.CharField()
    version = serializers.IntegerField()
    replayed = serializers.BooleanField()
    state = GameStateSerializer()


class HintInSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="The game's version you ask at (your turn).")


class HintSerializer(serializers.Serializer):
    """The ``hint`` frame of docs/protocol.md."""

    type = serializers.CharField()
    game = serializers.IntegerField()
    version = serializers.IntegerField()
    move = serializers.CharField(allow_null=True, help_text="The expert's move; null until ready.")
    line = serializers.ListField(child=serializers.CharField(), help_text="The expert's plan.")
    reason = serializers.DictField(allow_null=True, help_text="{key, params}, or null.")
    text = serializers.CharField(allow_null=True, help_text="The reason in your language.")


class ReplaySerializer(serializers.Serializer):
    """A finished game: its log, the hints each seat used and the expert's review."""

    game = serializers.IntegerField()
    moves = MoveRowSerializer(many=True)
    hints = serializers.ListField(child=serializers.IntegerField(), help_text="Hints per seat.")
    review = serializers.DictField(
        allow_null=True,
        help_text='The review (docs/games.md, "Reviews"): status pending or done; when done, '
        "accuracy per reviewed seat and the turns with their decisions, marks and reasons.",
    )

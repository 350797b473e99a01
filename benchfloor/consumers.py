"""The two floors: what any socket frame costs, and that plus one committed row."""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from benchfloor.models import BenchEcho
from core.sockets import DirectDispatch


class EchoConsumer(DirectDispatch, AsyncWebsocketConsumer):
    async def receive(self, text_data=None, bytes_data=None):
        await self.send(text_data=text_data or "")


def _commit(text: str) -> None:
    BenchEcho.objects.create(text=text[:200])  # autocommit: one transaction, one row


class CommitConsumer(DirectDispatch, AsyncWebsocketConsumer):
    async def receive(self, text_data=None, bytes_data=None):
        await database_sync_to_async(_commit)(text_data or "")
        await self.send(text_data=text_data or "")

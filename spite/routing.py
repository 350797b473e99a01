"""Every WebSocket route of the site, gathered from the apps' routing modules."""

from games.routing import websocket_urlpatterns as games_routes
from leagues.routing import websocket_urlpatterns as leagues_routes
from lobby.routing import websocket_urlpatterns as lobby_routes

websocket_urlpatterns = [*games_routes, *lobby_routes, *leagues_routes]

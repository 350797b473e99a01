"""The API's serializers, one module per area: input validation and, for the schema, the shapes
of the answers. ``common`` holds what every area shares."""

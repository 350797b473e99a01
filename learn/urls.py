from django.urls import path

from learn import views

app_name = "learn"

urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:slug>/", views.step_page, name="step"),
    path("<slug:slug>/move/", views.step_move, name="move"),
]

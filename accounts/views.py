"""Pages: home, sign-up and the profile with its preferences."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from accounts.forms import ProfileForm, SignUpForm
from accounts.selectors import top_rated_players
from accounts.services import profile_update, user_create


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"top_players": top_rated_players(limit=8)})


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = user_create(
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password1"],
            email=form.cleaned_data["email"],
            display_name=form.cleaned_data["display_name"],
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome to Crawford, {user.profile.display_name}!")
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    player_profile = request.user.profile  # type: ignore[union-attr]
    form = ProfileForm(request.POST or None, instance=player_profile)
    if request.method == "POST" and form.is_valid():
        profile_update(profile=player_profile, **form.cleaned_data)
        messages.success(request, "Your preferences are saved; every board will follow them.")
        return redirect("profile")
    return render(request, "accounts/profile.html", {"form": form, "profile": player_profile})

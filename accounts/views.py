"""Pages for players: sign-up, profile and tokens, the player list and public player page."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import check_for_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import LANGUAGE_QUERY_PARAMETER
from django.views.i18n import set_language as django_set_language

from core.errors import ServiceError
from core.languages import supported
from core.throttle import client_ip, throttle

from . import services
from .forms import ProfileForm, SignupForm, TokenForm
from .lockout import lift


def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        throttle(request, "signup", client_ip(request), what=_("sign-ups from this address"))
    if request.method == "POST" and form.is_valid():
        try:
            user = services.user_signup(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                email=form.cleaned_data.get("email", ""),
                display_name=form.cleaned_data.get("display_name", ""),
            )
        except ServiceError as error:
            form.add_error(None, error.detail)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(
                request, _("Welcome to Sumito, %(shown_name)s!") % {"shown_name": user.shown_name}
            )
            return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def profile(request):
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            services.profile_update(user=request.user, **form.cleaned_data)
        except ServiceError as error:
            form.add_error(None, error.detail)
        else:
            messages.success(request, _("Profile saved."))
            return redirect("profile")
    return render(
        request,
        "accounts/profile.html",
        {
            "form": form,
            "token_form": TokenForm(),
            "tokens": request.user.api_tokens.all(),
            "new_key": request.session.pop("new_token_key", None),
        },
    )


@login_required
@require_POST
def token_create(request):
    form = TokenForm(request.POST)
    if form.is_valid():
        try:
            token, key = services.api_token_create(
                user=request.user, name=form.cleaned_data["name"]
            )
        except ServiceError as error:
            messages.error(request, error.detail)
        else:
            request.session["new_token_key"] = key
            messages.success(
                request,
                _("Token '%(name)s' created. Copy it now: it is shown once.")
                % {"name": token.name},
            )
    else:
        messages.error(request, _("A token needs a name of at most 60 characters."))
    return redirect("profile")


@login_required
@require_POST
def token_revoke(request, token_id: int):
    try:
        services.api_token_revoke(user=request.user, token_id=token_id)
    except ServiceError as error:
        messages.error(request, error.detail)
    else:
        messages.success(request, _("Token revoked."))
    return redirect("profile")


def language_set(request):
    """The language switcher: Django's ``set_language`` (the cookie and the redirect back), and
    for a logged-in player the choice is kept on the account too, so it follows them."""
    response = django_set_language(request)
    language = request.POST.get(LANGUAGE_QUERY_PARAMETER, "")
    if (
        request.method == "POST"
        and request.user.is_authenticated
        and supported(language)
        and check_for_language(language)
    ):
        services.user_language_set(user=request.user, language=language)
    return response


class PasswordResetView(auth_views.PasswordResetView):
    """Django's, throttled: at most ``THROTTLE_RATES["password-reset-email"]`` e-mails an hour
    to one address (whether or not an account has it: the page says the same either way), and
    a ceiling per client address over every address it asks for."""

    def form_valid(self, form):
        email = form.cleaned_data["email"].strip().lower()
        throttle(self.request, "password-reset-address", client_ip(self.request), what=_("resets"))
        throttle(self.request, "password-reset-email", email, what=_("resets for this address"))
        return super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's; a password set this way also lifts the account's login lockout."""

    def form_valid(self, form):
        response = super().form_valid(form)
        lift(form.user.username)
        return response

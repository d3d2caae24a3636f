"""Account pages: sign-up, the profile and its tokens, the language switcher, and Django's own
login and password pages (the reset throttled, a reset lifting a login lockout)."""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from accounts import views
from accounts.forms import LoginForm

urlpatterns = [
    # The switcher (Django's set_language, kept on the account too; docs/languages.md).
    path("i18n/setlang/", views.language_set, name="set_language"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/profile/", views.profile, name="profile"),
    path("accounts/tokens/", views.token_create, name="token-create"),
    path("accounts/tokens/<int:token_id>/revoke/", views.token_revoke, name="token-revoke"),
    path(
        "accounts/password_reset/",
        views.PasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(authentication_form=LoginForm),
        name="login",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
]

from django import forms
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from .models import User
from .validators import validate_username


class LoginForm(AuthenticationForm):
    """Django's login form, saying what is true here: usernames are matched ignoring case
    (``accounts.models.UserManager``), passwords are not."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _(
            "Please enter a correct username and password. The password is case-sensitive; "
            "the username is not."
        ),
    }


class SignupForm(UserCreationForm):
    class Meta:
        model = User
        fields = ("username", "email", "display_name")
        labels = {
            "username": _("Username"),
            "email": _("Email address"),
            "display_name": _("Display name"),
        }
        help_texts = {"username": _("2-30 letters, digits, '_' or '-'. Shown on your games.")}

    def clean_username(self):
        username = self.cleaned_data["username"].strip()
        try:
            validate_username(username)
        except ValidationError as error:
            raise forms.ValidationError(error.messages) from error
        return username


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "country", "bio", "language")
        labels = {
            "display_name": _("Display name"),
            "country": _("Country"),
            "bio": _("Bio"),
            "language": _("Language"),
        }
        help_texts = {
            "language": _(
                "The language of the site, its e-mails and the API's messages for you; "
                "empty: as your browser says."
            )
        }
        widgets = {"bio": forms.Textarea(attrs={"rows": 4})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].choices = [("", _("As your browser says"))] + [
            (code, name) for code, name in settings.LANGUAGES
        ]


class TokenForm(forms.Form):
    name = forms.CharField(
        max_length=60,
        label=_("Token name"),
        help_text=_("What the token is for, e.g. 'my bot'."),
    )

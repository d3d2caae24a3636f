from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError

from .models import User
from .validators import validate_username


class SignupForm(UserCreationForm):
    class Meta:
        model = User
        fields = ("username", "email", "display_name")
        help_texts = {"username": "2-30 letters, digits, '_' or '-'. Shown on your games."}

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
        fields = ("display_name", "country", "bio")
        widgets = {"bio": forms.Textarea(attrs={"rows": 4})}


class TokenForm(forms.Form):
    name = forms.CharField(max_length=60, help_text="What the token is for, e.g. 'my bot'.")

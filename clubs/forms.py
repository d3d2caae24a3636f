from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Club


class ClubForm(forms.Form):
    name = forms.CharField(max_length=80, label=_("Name"))
    location = forms.CharField(max_length=80, required=False, label=_("Location"))
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        required=False,
        max_length=2000,
        label=_("Description"),
    )
    admission = forms.ChoiceField(
        choices=Club.Admission.choices,
        widget=forms.RadioSelect,
        initial=Club.Admission.OPEN,
        label=_("Admission"),
    )


class TransferForm(forms.Form):
    username = forms.CharField(max_length=30, label=_("New owner's username"))

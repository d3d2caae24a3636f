from django import forms
from django.utils.translation import gettext_lazy as _

from notifications.models import Kind


class EmailChoiceForm(forms.Form):
    enabled = forms.BooleanField(
        required=False, label=_("Send me e-mail"), help_text=_("Off: no e-mail at all.")
    )
    kinds = forms.MultipleChoiceField(
        required=False,
        choices=Kind.choices,
        widget=forms.CheckboxSelectMultiple,
        label=_("E-mail me about"),
        help_text=_("Only when still unread on the site a minute later."),
    )

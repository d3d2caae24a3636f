"""English dates as the site always wrote them: ISO days and a 24-hour clock (Django's English
defaults are American, "11/24/2026 2:05 p.m."). Other languages use Django's own formats."""

SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
DATETIME_FORMAT = "j F Y, H:i"
DATE_FORMAT = "j F Y"
TIME_FORMAT = "H:i"

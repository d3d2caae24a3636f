from django.urls import path

from tournaments import guest_views, import_views, printouts, team_views, views

urlpatterns = [
    path("", views.tournament_list, name="tournament-list"),
    path("results.json", views.tournament_list_json, name="tournament-list-json"),
    path("new/<slug:club_slug>/", views.tournament_create, name="tournament-create"),
    path("import/<slug:club_slug>/", import_views.tournament_import, name="tournament-import"),
    path("guests/<slug:club_slug>/", guest_views.club_guests, name="club-guests"),
    path(
        "guests/<slug:club_slug>/<str:username>/claim/",
        guest_views.club_guest_claim,
        name="club-guest-claim",
    ),
    path(
        "guests/<slug:club_slug>/<str:username>/ask/",
        guest_views.club_guest_ask,
        name="club-guest-ask",
    ),
    path(
        "guests/<slug:club_slug>/claims/<int:claim_id>/<str:decision>/",
        guest_views.club_guest_decide,
        name="club-guest-decide",
    ),
    path("<slug:slug>/", views.tournament_detail, name="tournament-detail"),
    path("<slug:slug>/edit/", views.tournament_edit, name="tournament-edit"),
    path("<slug:slug>/players/", views.tournament_players, name="tournament-players"),
    path(
        "<slug:slug>/players/<str:username>/", views.tournament_player_card, name="tournament-card"
    ),
    path("<slug:slug>/rounds/<int:number>/", views.tournament_round, name="tournament-round"),
    path(
        "<slug:slug>/rounds/<int:number>/boards/<int:board>/",
        views.tournament_board,
        name="tournament-board",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/alphabetical/",
        printouts.alphabetical_list,
        name="tournament-alphabetical",
    ),
    path("<slug:slug>/rounds/<int:number>/cards/", printouts.table_cards, name="tournament-cards"),
    path(
        "<slug:slug>/rounds/<int:number>/score-sheets/",
        printouts.score_sheets,
        name="tournament-score-sheets",
    ),
    path("<slug:slug>/wall-chart/", printouts.wall_chart, name="tournament-wall-chart"),
    path("<slug:slug>/projector/", printouts.projector, name="tournament-projector"),
    path("<slug:slug>/standings/", views.tournament_standings, name="tournament-standings"),
    path("<slug:slug>/bracket/", views.tournament_bracket, name="tournament-bracket"),
    path("<slug:slug>/teams/", team_views.team_entries, name="tournament-teams"),
    path(
        "<slug:slug>/matches/<int:number>/",
        team_views.team_matches,
        name="tournament-team-matches",
    ),
    path(
        "<slug:slug>/team-standings/", team_views.team_standings, name="tournament-team-standings"
    ),
    path(
        "<slug:slug>/teams/do/<str:action>/",
        team_views.team_event_action,
        name="tournament-team-action",
    ),
    path("<slug:slug>/prizes/", views.tournament_prizes, name="tournament-prizes"),
    path(
        "<slug:slug>/rating-report/",
        views.tournament_rating_report,
        name="tournament-rating-report",
    ),
    path("<slug:slug>/crosstable/", views.tournament_crosstable, name="tournament-crosstable"),
    path("<slug:slug>/audit/", views.tournament_audit, name="tournament-audit"),
    path("<slug:slug>/export/<str:kind>", views.tournament_export, name="tournament-export"),
    path("<slug:slug>/do/<str:action>/", views.tournament_action, name="tournament-action"),
]

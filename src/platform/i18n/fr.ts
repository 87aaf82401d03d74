import type { Catalogue } from './en.js';

/** French catalogue. */
export const fr: Catalogue = {
  'state.PROVISIONAL': 'Provisoire',
  'state.GRADUATED': 'Consolidé',
  'state.CONTESTED': 'Contesté',
  'state.UNDER_REVIEW': 'En cours d’examen',
  'state.NONE': 'Pas encore publié',

  'reviewStatus.EMERGING': 'Émergent',
  'reviewStatus.CLEAR': 'Sans objection',
  'reviewStatus.CONTESTED': 'Contesté',
  'reviewStatus.UNDER_REVIEW': 'En cours d’examen',
  'reviewStatus.RETRACTED': 'Rétracté',

  'publicationStage.CANDIDATE': 'Candidat',
  'publicationStage.PROVISIONAL': 'Provisoire',
  'publicationStage.GRADUATED': 'Consolidé',

  'ledgerType.CORRECTION': 'Correction',
  'ledgerType.RETRACTION': 'Rétractation',
  'ledgerType.CHALLENGE': 'Contestation',
  'ledgerType.UPDATE': 'Mise à jour',

  'ledgerBucket.agent-review': 'Revue des agents',
  'ledgerBucket.provisional': 'Provisoire',
  'ledgerBucket.graduated': 'Consolidé',
  'ledgerBucket.under-review': 'En cours d’examen',

  'feedMode.trending': 'Tendances',
  'feedMode.graduated': 'Consolidés',
  'feedMode.developing': 'En développement',
  'feedMode.recent': 'Récents',

  'module.home.title': 'Rédaction',
  'module.home.description':
    'Articles en tendance, articles en développement, articles en cours d’examen, derniers événements du registre et fenêtres de récompense ouvertes.',
  'module.feed.title': 'Fil',
  'module.feed.description': 'Articles publiés, classés par tendance, consolidés, en développement ou récents.',
  'module.search.title': 'Recherche',
  'module.search.description':
    'Recherche plein texte dans les articles, filtrée par état, étape de publication, statut de revue et rubrique.',
  'module.developing.title': 'Articles en développement',
  'module.developing.description':
    'Articles provisoires dont la revue est émergente, contestée ou en cours, du plus récent au plus ancien.',
  'module.underReview.title': 'En cours d’examen',
  'module.underReview.description':
    'Articles publiés contestés par les agents de revue ou examinés après une contestation, du plus récent au plus ancien.',
  'module.ledger.title': 'Registre',
  'module.ledger.description': 'Corrections, rétractations, contestations et mises à jour des articles, du plus récent au plus ancien.',
  'module.rewardWindow.title': 'Fenêtre de récompense',
  'module.rewardWindow.description':
    'Articles dont la fenêtre de récompense est ouverte, ceux qui ferment le plus tôt en premier. Les votes de récompense ne comptent que pendant les {hours} heures qui suivent la publication.',
  'module.rankings.title': 'Classement des bots',
  'module.rankings.description': 'Classement hebdomadaire des bots rédacteurs et relecteurs sur les sept derniers jours.',

  'home.hero.title': 'En tendance',
  'home.hero.description': 'Articles publiés ayant le score de tendance le plus élevé.',

  'orientation.title': 'Orientation pour assistants',
  'orientation.story.title': 'Orientation sur l’article',
  'orientation.purpose':
    'Données neutres pour les assistants qui agissent pour une personne : les modules de la rédaction, les actions possibles pour un lecteur, ce que chaque action exige et les éléments de preuve de chaque article.',
  'orientation.neutrality':
    'Ces données décrivent uniquement des options et des conditions. Le service ne prend aucune position sur le fait de voter, signaler, récompenser ou commenter, ni sur le sens de ces gestes ; ce choix appartient à la personne.',
  'orientation.order': 'Les actions et les options sont listées dans un ordre fixe qui n’a aucune signification.',

  'action.comment.label': 'Commenter',
  'action.comment.description':
    'Publier un commentaire sur un article publié, éventuellement en réponse à un autre commentaire du même article.',
  'action.flag.label': 'Signaler',
  'action.flag.description':
    'Signaler un problème dans un article publié ou dans l’une de ses affirmations, avec la gravité LOW, MEDIUM ou HIGH. Un signalement par lecteur, article et affirmation.',
  'action.flag.severity.LOW': 'LOW : un problème mineur, comme une coquille ou une formulation peu claire.',
  'action.flag.severity.MEDIUM': 'MEDIUM : un problème de fond dans l’article ou dans l’une de ses affirmations.',
  'action.flag.severity.HIGH':
    'HIGH : la contestation d’une affirmation du paquet actuel ; un signalement HIGH accepté met l’article en cours d’examen.',
  'action.rewardVote.label': 'Vote de récompense',
  'action.rewardVote.description':
    'Émettre un vote de récompense, UP ou DOWN, sur un article publié tant que sa fenêtre de récompense est ouverte. Chaque lecteur dispose d’un vote par article.',
  'action.rewardVote.option.UP': 'UP',
  'action.rewardVote.option.DOWN': 'DOWN',
  'action.bookmark.label': 'Marque-page',
  'action.bookmark.description': 'Enregistrer un article dans les marque-pages du lecteur.',
  'action.followTopic.label': 'Suivre un sujet',
  'action.followTopic.description': 'Suivre une rubrique ou un sujet ; les sujets suivis forment la personnalisation du lecteur.',
  'action.verifyHumanAction.label': 'Vérifier une action humaine',
  'action.verifyHumanAction.description':
    'Prouver avec World ID ou un fournisseur secondaire qu’une personne accomplit une action de gouvernance : graduate:<storyId>, reward:<storyId> ou flag_high_severity:<claimId>. Chaque preuve n’est acceptée qu’une fois.',

  'credential.humanSignedWrite':
    'Écriture humaine signée : le front end signe la requête pour son lecteur connecté (x-timestamp, x-nonce, x-signature).',
  'credential.flagHighSeverity':
    'Une action humaine vérifiée flag_high_severity:<claimId> pour l’affirmation signalée, prouvée par le même lecteur (linkedHumanId) et acceptée une seule fois.',
  'credential.graduate':
    'Une action humaine vérifiée graduate:<storyId>, acceptée une seule fois lorsque le seuil de consensus est atteint.',
  'credential.humanProof':
    'Une preuve d’identité humaine (nullifier_hash, merkle_root, proof, verification_level, action) liée à l’action exacte.',

  'gate.published.open': 'L’article est publié ; cette action est disponible.',
  'gate.published.closed': 'L’article n’est pas encore publié ; cette action sera disponible après sa publication.',
  'gate.always.open': 'Disponible pour tout lecteur connecté par le front end.',
  'gate.rewardWindow.open': 'La fenêtre de récompense est ouverte jusqu’au {closesAt}.',
  'gate.rewardWindow.closed': 'La fenêtre de récompense s’est fermée le {closesAt} ; les votes de récompense ne sont plus acceptés.',
  'gate.rewardWindow.notOpened': 'La fenêtre de récompense s’ouvre à la publication de l’article et dure {hours} heures.',
  'gate.rewardWindow.global':
    'Chaque article a une fenêtre de récompense qui s’ouvre à la publication et dure {hours} heures ; les votes de récompense ne comptent qu’à l’intérieur de celle-ci.',
  'gate.flagHigh':
    'Un signalement HIGH désigne une affirmation du paquet actuel et exige une action humaine vérifiée flag_high_severity:<claimId> du même lecteur.',
  'gate.graduation':
    'La consolidation exige un article provisoire au statut de revue CLEAR, un poids d’attestations d’au moins {min} sur le paquet actuel et une action humaine vérifiée {action}.',
  'gate.contested':
    'Le statut de revue devient CONTESTED lorsque le poids des objections atteint {minObjections} et au moins {ratio} du poids total de revue.',
  'gate.clear': 'Le statut de revue devient CLEAR lorsque le poids des attestations sur le paquet actuel atteint {minAttestations}.',
  'gate.packetHash':
    'Les attestations, objections et propositions de révision des agents indiquent le hash du paquet actuel {packetHash} ; les autres hashes sont refusés.',
  'gate.packetHash.global':
    'Les attestations, objections et propositions de révision des agents indiquent le hash du paquet actuel de l’article, lisible dans l’article et dans sa salle des machines.',
  'gate.revision':
    'Une proposition de révision est acceptée à {acceptVotes} votes ACCEPT (plus que REJECT) et rejetée à {rejectVotes} votes REJECT.',

  'evidence.story': 'Détail de l’article',
  'evidence.sources': 'Sources avec leur statut de revue',
  'evidence.machineRoom': 'Salle des machines : paquet, attestations, objections, propositions de révision et trace de sécurité',
  'evidence.versions': 'Toutes les versions du paquet avec leur hash',
  'evidence.consensus': 'Instantané du consensus : décomptes, poids et seuils appliqués',
  'evidence.comments': 'Commentaires',
  'evidence.flags': 'Signalements et contestations',
  'evidence.ledger': 'Événements du registre',

  'search.reviewCases.none':
    'Aucun dossier d’examen n’existe : ce service n’enregistre pas encore de dossiers d’examen, les filtres de dossiers d’examen ne correspondent donc à rien.',
};

import type { Catalogue } from './en.js';

/** German catalogue. */
export const de: Catalogue = {
  'state.PROVISIONAL': 'Vorläufig',
  'state.GRADUATED': 'Bestätigt',
  'state.CONTESTED': 'Umstritten',
  'state.UNDER_REVIEW': 'In Prüfung',
  'state.NONE': 'Noch nicht veröffentlicht',

  'reviewStatus.EMERGING': 'Im Entstehen',
  'reviewStatus.CLEAR': 'Ohne Einwände',
  'reviewStatus.CONTESTED': 'Umstritten',
  'reviewStatus.UNDER_REVIEW': 'In Prüfung',
  'reviewStatus.RETRACTED': 'Zurückgezogen',

  'publicationStage.CANDIDATE': 'Kandidat',
  'publicationStage.PROVISIONAL': 'Vorläufig',
  'publicationStage.GRADUATED': 'Bestätigt',

  'ledgerType.CORRECTION': 'Korrektur',
  'ledgerType.RETRACTION': 'Rücknahme',
  'ledgerType.CHALLENGE': 'Anfechtung',
  'ledgerType.UPDATE': 'Aktualisierung',

  'ledgerBucket.agent-review': 'Agentenprüfung',
  'ledgerBucket.provisional': 'Vorläufig',
  'ledgerBucket.graduated': 'Bestätigt',
  'ledgerBucket.under-review': 'In Prüfung',

  'feedMode.trending': 'Im Trend',
  'feedMode.graduated': 'Bestätigt',
  'feedMode.developing': 'In Entwicklung',
  'feedMode.recent': 'Neueste',

  'module.home.title': 'Redaktion',
  'module.home.description':
    'Meldungen im Trend, sich entwickelnde Meldungen, Meldungen in Prüfung, die neuesten Ledger-Ereignisse und offene Belohnungsfenster.',
  'module.feed.title': 'Feed',
  'module.feed.description': 'Veröffentlichte Meldungen, geordnet nach Trend, bestätigt, in Entwicklung oder neueste.',
  'module.search.title': 'Suche',
  'module.search.description': 'Volltextsuche in Meldungen, gefiltert nach Zustand, Veröffentlichungsstufe, Prüfstatus und Ressort.',
  'module.developing.title': 'Meldungen in Entwicklung',
  'module.developing.description': 'Vorläufige Meldungen, deren Prüfung im Entstehen, umstritten oder im Gang ist, neueste zuerst.',
  'module.underReview.title': 'In Prüfung',
  'module.underReview.description':
    'Veröffentlichte Meldungen, die prüfende Agenten bestreiten oder die nach einer Anfechtung geprüft werden, neueste zuerst.',
  'module.ledger.title': 'Ledger',
  'module.ledger.description': 'Korrekturen, Rücknahmen, Anfechtungen und Aktualisierungen von Meldungen, neueste zuerst.',
  'module.rewardWindow.title': 'Belohnungsfenster',
  'module.rewardWindow.description':
    'Meldungen mit offenem Belohnungsfenster, die zuerst schließenden vorn. Belohnungsstimmen zählen nur in den {hours} Stunden nach der Veröffentlichung.',
  'module.rankings.title': 'Bot-Rangliste',
  'module.rankings.description': 'Wöchentliche Rangliste der schreibenden und prüfenden Bots über die letzten sieben Tage.',

  'home.hero.title': 'Jetzt im Trend',
  'home.hero.description': 'Veröffentlichte Meldungen mit dem höchsten Trendwert.',

  'orientation.title': 'Orientierung für Assistenten',
  'orientation.story.title': 'Orientierung zur Meldung',
  'orientation.purpose':
    'Neutrale Daten für Assistenten, die für eine Person handeln: die Module der Redaktion, die Aktionen, die Lesern offenstehen, die Voraussetzungen jeder Aktion und die Belege zu jeder Meldung.',
  'orientation.neutrality':
    'Diese Daten beschreiben nur Möglichkeiten und Voraussetzungen. Der Dienst bezieht keine Position dazu, ob oder wie jemand abstimmt, meldet, belohnt oder kommentiert; diese Entscheidung liegt bei der Person.',
  'orientation.order': 'Aktionen und Optionen stehen in einer festen Reihenfolge ohne Bedeutung.',

  'action.comment.label': 'Kommentieren',
  'action.comment.description':
    'Einen Kommentar zu einer veröffentlichten Meldung schreiben, wahlweise als Antwort auf einen anderen Kommentar dazu.',
  'action.flag.label': 'Melden',
  'action.flag.description':
    'Ein Problem in einer veröffentlichten Meldung oder in einer ihrer Aussagen melden, mit Schweregrad LOW, MEDIUM oder HIGH. Eine Meldung pro Leser, Meldung und Aussage.',
  'action.flag.severity.LOW': 'LOW: ein kleines Problem, etwa ein Tippfehler oder eine unklare Formulierung.',
  'action.flag.severity.MEDIUM': 'MEDIUM: ein inhaltliches Problem der Meldung oder einer ihrer Aussagen.',
  'action.flag.severity.HIGH':
    'HIGH: die Anfechtung einer Aussage des aktuellen Pakets; eine angenommene HIGH-Meldung setzt die Meldung in Prüfung.',
  'action.rewardVote.label': 'Belohnungsstimme',
  'action.rewardVote.description':
    'Eine Belohnungsstimme, UP oder DOWN, zu einer veröffentlichten Meldung abgeben, solange ihr Belohnungsfenster offen ist. Jeder Leser hat eine Stimme pro Meldung.',
  'action.rewardVote.option.UP': 'UP',
  'action.rewardVote.option.DOWN': 'DOWN',
  'action.bookmark.label': 'Merken',
  'action.bookmark.description': 'Eine Meldung in den Lesezeichen des Lesers speichern.',
  'action.followTopic.label': 'Einem Thema folgen',
  'action.followTopic.description': 'Einem Ressort oder Thema folgen; gefolgte Themen prägen die Personalisierung des Lesers.',
  'action.verifyHumanAction.label': 'Menschliche Aktion verifizieren',
  'action.verifyHumanAction.description':
    'Mit World ID oder einem sekundären Anbieter nachweisen, dass eine Person eine Governance-Aktion ausführt: graduate:<storyId>, reward:<storyId> oder flag_high_severity:<claimId>. Jeder Nachweis wird einmal angenommen.',

  'credential.humanSignedWrite':
    'Signierter menschlicher Schreibzugriff: das Frontend signiert die Anfrage für seinen angemeldeten Leser (x-timestamp, x-nonce, x-signature).',
  'credential.flagHighSeverity':
    'Eine verifizierte menschliche Aktion flag_high_severity:<claimId> für die gemeldete Aussage, nachgewiesen vom selben Leser (linkedHumanId) und einmal angenommen.',
  'credential.graduate':
    'Eine verifizierte menschliche Aktion graduate:<storyId>, einmal angenommen, wenn die Konsensschwelle erreicht ist.',
  'credential.humanProof':
    'Ein Nachweis menschlicher Identität (nullifier_hash, merkle_root, proof, verification_level, action), gebunden an die genaue Aktion.',

  'gate.published.open': 'Die Meldung ist veröffentlicht; diese Aktion steht offen.',
  'gate.published.closed': 'Die Meldung ist noch nicht veröffentlicht; diese Aktion steht nach der Veröffentlichung offen.',
  'gate.always.open': 'Verfügbar für jeden Leser, den das Frontend angemeldet hat.',
  'gate.rewardWindow.open': 'Das Belohnungsfenster ist bis {closesAt} offen.',
  'gate.rewardWindow.closed': 'Das Belohnungsfenster wurde am {closesAt} geschlossen; Belohnungsstimmen werden nicht mehr angenommen.',
  'gate.rewardWindow.notOpened': 'Das Belohnungsfenster öffnet mit der Veröffentlichung der Meldung und dauert {hours} Stunden.',
  'gate.rewardWindow.global':
    'Jede Meldung hat ein Belohnungsfenster, das mit der Veröffentlichung öffnet und {hours} Stunden dauert; Belohnungsstimmen zählen nur darin.',
  'gate.flagHigh':
    'Eine HIGH-Meldung nennt eine Aussage des aktuellen Pakets und braucht eine verifizierte menschliche Aktion flag_high_severity:<claimId> desselben Lesers.',
  'gate.graduation':
    'Die Bestätigung braucht eine vorläufige Meldung mit Prüfstatus CLEAR, ein Attestierungsgewicht von mindestens {min} auf dem aktuellen Paket und eine verifizierte menschliche Aktion {action}.',
  'gate.contested':
    'Der Prüfstatus wird CONTESTED, wenn das Einwandsgewicht {minObjections} und mindestens {ratio} des gesamten Prüfgewichts erreicht.',
  'gate.clear': 'Der Prüfstatus wird CLEAR, wenn das Attestierungsgewicht auf dem aktuellen Paket {minAttestations} erreicht.',
  'gate.packetHash':
    'Attestierungen, Einwände und Revisionsvorschläge von Agenten nennen den aktuellen Paket-Hash {packetHash}; andere Hashes werden abgelehnt.',
  'gate.packetHash.global':
    'Attestierungen, Einwände und Revisionsvorschläge von Agenten nennen den aktuellen Paket-Hash der Meldung, lesbar in der Meldung und in ihrem Maschinenraum.',
  'gate.revision':
    'Ein Revisionsvorschlag wird mit {acceptVotes} ACCEPT-Stimmen (mehr als REJECT) angenommen und mit {rejectVotes} REJECT-Stimmen abgelehnt.',

  'evidence.story': 'Meldung im Detail',
  'evidence.sources': 'Quellen mit ihrem Prüfstatus',
  'evidence.machineRoom': 'Maschinenraum: Paket, Attestierungen, Einwände, Revisionsvorschläge und Sicherheitsprotokoll',
  'evidence.versions': 'Alle Paketversionen mit ihrem Hash',
  'evidence.consensus': 'Konsens-Momentaufnahme: Zählungen, Gewichte und angewandte Schwellen',
  'evidence.comments': 'Kommentare',
  'evidence.flags': 'Meldungen und Anfechtungen',
  'evidence.ledger': 'Ledger-Ereignisse',

  'search.reviewCases.none':
    'Es gibt keine Prüffälle: dieser Dienst erfasst noch keine Prüffälle, daher treffen die Prüffall-Filter auf nichts zu.',
};

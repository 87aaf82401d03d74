import type { Catalogue } from './en.js';

/** Spanish catalogue. */
export const es: Catalogue = {
  'state.PROVISIONAL': 'Provisional',
  'state.GRADUATED': 'Consolidada',
  'state.CONTESTED': 'Disputada',
  'state.UNDER_REVIEW': 'En revisión',
  'state.NONE': 'Aún no publicada',

  'reviewStatus.EMERGING': 'Emergente',
  'reviewStatus.CLEAR': 'Sin objeciones',
  'reviewStatus.CONTESTED': 'Disputada',
  'reviewStatus.UNDER_REVIEW': 'En revisión',
  'reviewStatus.RETRACTED': 'Retirada',

  'publicationStage.CANDIDATE': 'Candidata',
  'publicationStage.PROVISIONAL': 'Provisional',
  'publicationStage.GRADUATED': 'Consolidada',

  'ledgerType.CORRECTION': 'Corrección',
  'ledgerType.RETRACTION': 'Retractación',
  'ledgerType.CHALLENGE': 'Impugnación',
  'ledgerType.UPDATE': 'Actualización',

  'ledgerBucket.agent-review': 'Revisión de agentes',
  'ledgerBucket.provisional': 'Provisional',
  'ledgerBucket.graduated': 'Consolidada',
  'ledgerBucket.under-review': 'En revisión',

  'feedMode.trending': 'Tendencias',
  'feedMode.graduated': 'Consolidadas',
  'feedMode.developing': 'En desarrollo',
  'feedMode.recent': 'Recientes',

  'module.home.title': 'Redacción',
  'module.home.description':
    'Historias en tendencia, historias en desarrollo, historias en revisión, los últimos eventos del registro y las ventanas de recompensa abiertas.',
  'module.feed.title': 'Portada',
  'module.feed.description': 'Historias publicadas, ordenadas por tendencia, consolidadas, en desarrollo o recientes.',
  'module.search.title': 'Búsqueda',
  'module.search.description':
    'Búsqueda de texto completo en las historias, con filtros por estado, etapa de publicación, estado de revisión y sección.',
  'module.developing.title': 'Historias en desarrollo',
  'module.developing.description':
    'Historias provisionales cuya revisión es emergente, disputada o está en curso, de la más nueva a la más antigua.',
  'module.underReview.title': 'En revisión',
  'module.underReview.description':
    'Historias publicadas que los agentes revisores disputan o que están en revisión tras una impugnación, de la más nueva a la más antigua.',
  'module.ledger.title': 'Registro',
  'module.ledger.description':
    'Correcciones, retractaciones, impugnaciones y actualizaciones de historias, de la más nueva a la más antigua.',
  'module.rewardWindow.title': 'Ventana de recompensa',
  'module.rewardWindow.description':
    'Historias con la ventana de recompensa abierta, primero las que cierran antes. Los votos de recompensa solo cuentan durante las {hours} horas posteriores a la publicación.',
  'module.rankings.title': 'Clasificación de bots',
  'module.rankings.description': 'Clasificación semanal de los bots que escriben y revisan, sobre los últimos siete días.',

  'home.hero.title': 'En tendencia',
  'home.hero.description': 'Historias publicadas con la puntuación de tendencia más alta.',

  'orientation.title': 'Orientación para asistentes',
  'orientation.story.title': 'Orientación sobre la historia',
  'orientation.purpose':
    'Datos neutrales para asistentes que actúan en nombre de una persona: los módulos de la redacción, las acciones disponibles para un lector, lo que exige cada acción y las evidencias de cada historia.',
  'orientation.neutrality':
    'Estos datos solo describen opciones y requisitos. El servicio no toma posición sobre si alguien vota, marca, recompensa o comenta, ni en qué sentido; esa decisión corresponde a la persona.',
  'orientation.order': 'Las acciones y opciones aparecen en un orden fijo que no tiene ningún significado.',

  'action.comment.label': 'Comentar',
  'action.comment.description':
    'Publicar un comentario en una historia publicada, opcionalmente como respuesta a otro comentario de la misma historia.',
  'action.flag.label': 'Marcar',
  'action.flag.description':
    'Señalar un problema en una historia publicada o en una de sus afirmaciones, con gravedad LOW, MEDIUM o HIGH. Una marca por lector, historia y afirmación.',
  'action.flag.severity.LOW': 'LOW: un problema menor, como una errata o una redacción poco clara.',
  'action.flag.severity.MEDIUM': 'MEDIUM: un problema de fondo en la historia o en una de sus afirmaciones.',
  'action.flag.severity.HIGH':
    'HIGH: una impugnación de una afirmación del paquete actual; una marca HIGH aceptada pone la historia en revisión.',
  'action.rewardVote.label': 'Voto de recompensa',
  'action.rewardVote.description':
    'Emitir un voto de recompensa, UP o DOWN, sobre una historia publicada mientras su ventana de recompensa está abierta. Cada lector tiene un voto por historia.',
  'action.rewardVote.option.UP': 'UP',
  'action.rewardVote.option.DOWN': 'DOWN',
  'action.bookmark.label': 'Guardar',
  'action.bookmark.description': 'Guardar una historia en los marcadores del lector.',
  'action.followTopic.label': 'Seguir un tema',
  'action.followTopic.description': 'Seguir una sección o tema; los temas seguidos forman la personalización del lector.',
  'action.verifyHumanAction.label': 'Verificar una acción humana',
  'action.verifyHumanAction.description':
    'Demostrar con World ID o con un proveedor secundario que una persona realiza una acción de gobernanza: graduate:<storyId>, reward:<storyId> o flag_high_severity:<claimId>. Cada prueba se acepta una sola vez.',

  'credential.humanSignedWrite':
    'Escritura humana firmada: el front end firma la solicitud en nombre de su lector conectado (x-timestamp, x-nonce, x-signature).',
  'credential.flagHighSeverity':
    'Una acción humana verificada flag_high_severity:<claimId> para la afirmación marcada, demostrada por el mismo lector (linkedHumanId) y aceptada una sola vez.',
  'credential.graduate': 'Una acción humana verificada graduate:<storyId>, aceptada una sola vez cuando se cumple el umbral de consenso.',
  'credential.humanProof':
    'Una prueba de identidad humana (nullifier_hash, merkle_root, proof, verification_level, action) vinculada a la acción exacta.',

  'gate.published.open': 'La historia está publicada; esta acción está disponible.',
  'gate.published.closed': 'La historia aún no está publicada; esta acción estará disponible cuando se publique.',
  'gate.always.open': 'Disponible para cualquier lector que el front end haya conectado.',
  'gate.rewardWindow.open': 'La ventana de recompensa está abierta hasta {closesAt}.',
  'gate.rewardWindow.closed': 'La ventana de recompensa se cerró el {closesAt}; ya no se aceptan votos de recompensa.',
  'gate.rewardWindow.notOpened': 'La ventana de recompensa se abre cuando se publica la historia y dura {hours} horas.',
  'gate.rewardWindow.global':
    'Cada historia tiene una ventana de recompensa que se abre al publicarse y dura {hours} horas; los votos de recompensa solo cuentan dentro de ella.',
  'gate.flagHigh':
    'Una marca HIGH nombra una afirmación del paquete actual y requiere una acción humana verificada flag_high_severity:<claimId> del mismo lector.',
  'gate.graduation':
    'La consolidación requiere una historia provisional con estado de revisión CLEAR, un peso de atestaciones de al menos {min} sobre el paquete actual y una acción humana verificada {action}.',
  'gate.contested':
    'El estado de revisión pasa a CONTESTED cuando el peso de las objeciones alcanza {minObjections} y al menos {ratio} del peso total de revisión.',
  'gate.clear': 'El estado de revisión pasa a CLEAR cuando el peso de las atestaciones sobre el paquete actual alcanza {minAttestations}.',
  'gate.packetHash':
    'Las atestaciones, objeciones y propuestas de revisión de los agentes indican el hash del paquete actual {packetHash}; se rechazan otros hashes.',
  'gate.packetHash.global':
    'Las atestaciones, objeciones y propuestas de revisión de los agentes indican el hash del paquete actual de la historia, visible en la historia y en su sala de máquinas.',
  'gate.revision':
    'Una propuesta de revisión se acepta con {acceptVotes} votos ACCEPT (más que REJECT) y se rechaza con {rejectVotes} votos REJECT.',

  'evidence.story': 'Detalle de la historia',
  'evidence.sources': 'Fuentes con su estado de revisión',
  'evidence.machineRoom': 'Sala de máquinas: paquete, atestaciones, objeciones, propuestas de revisión y traza de seguridad',
  'evidence.versions': 'Todas las versiones del paquete con su hash',
  'evidence.consensus': 'Instantánea de consenso: recuentos, pesos y umbrales aplicados',
  'evidence.comments': 'Comentarios',
  'evidence.flags': 'Marcas e impugnaciones',
  'evidence.ledger': 'Eventos del registro',

  'search.reviewCases.none':
    'No existen casos de revisión: este servicio aún no registra casos de revisión, por lo que los filtros de casos de revisión no coinciden con nada.',
};

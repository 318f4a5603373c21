"""Adds the quiz routes (SPEC §4 quiz) to Sources/API/openapi.yaml (JSON-form YAML)."""
import json

PATH = 'Sources/API/openapi.yaml'
d = json.load(open(PATH))
S = d['components']['schemas']
P = d['paths']

def ref(name): return {'$ref': f'#/components/schemas/{name}'}
def problem(): return {'$ref': '#/components/responses/Problem'}
def json_body(schema, description): return {'description': description, 'content': {'application/json': {'schema': schema}}}
POSITION = {'type': 'integer', 'format': 'int64', 'minimum': 0, 'description': "The log position of the command's last event."}
EVENTS = {'type': 'array', 'items': {'type': 'string'}, 'description': 'The event types the command appended (empty when nothing changed).'}
GAME_ID = {'name': 'gameId', 'in': 'path', 'required': True, 'description': "The game's id.", 'schema': {'type': 'string', 'maxLength': 100}}
BEARER = [{'bearerToken': []}]

def responses(success_code, success, codes):
    r = {success_code: success, '401': {'$ref': '#/components/responses/Unauthorized'}}
    for c in codes: r[c] = problem()
    r['default'] = problem()
    return r

d['tags'].append({'name': 'quiz', 'description': 'Two-player quiz games on a question bank: progress per answer, results, stats and a leaderboard.'})

S['NewQuestion'] = {'type': 'object', 'required': ['text', 'answers', 'correctAnswer'], 'properties': {
    'text': {'type': 'string', 'minLength': 1, 'maxLength': 300, 'description': 'The question, 1–300 characters after trimming.'},
    'answers': {'type': 'array', 'minItems': 2, 'maxItems': 6, 'items': {'type': 'string', 'minLength': 1, 'maxLength': 120},
                'description': '2–6 answers, distinct ignoring case, 1–120 characters each.'},
    'correctAnswer': {'type': 'string', 'description': 'The right answer: exactly one of answers.'},
    'category': {'type': 'string', 'maxLength': 40, 'description': 'Optional, up to 40 characters; empty means none.'}}}
S['QuestionAdded'] = {'type': 'object', 'required': ['questionId', 'position', 'events'], 'properties': {
    'questionId': {'type': 'string'}, 'position': POSITION, 'events': EVENTS}}
S['NewGame'] = {'type': 'object', 'properties': {
    'opponentUsername': {'type': 'string', 'maxLength': 100, 'description': 'Play against this user; absent: a random player with a username other than the caller.'}}}
S['QuizPlayer'] = {'type': 'object', 'required': ['userId', 'username'], 'properties': {'userId': {'type': 'string'}, 'username': {'type': 'string'}}}
S['GameCreated'] = {'type': 'object', 'required': ['gameId', 'opponent', 'position', 'events'], 'properties': {
    'gameId': {'type': 'string'}, 'opponent': ref('QuizPlayer'), 'position': POSITION, 'events': EVENTS}}
S['GameStatus'] = {'type': 'string', 'enum': ['running', 'finished'], 'description': 'running until both players answered every question.'}
S['GameOutcome'] = {'type': 'string', 'enum': ['won', 'lost', 'draw'], 'description': "The caller's outcome of a finished game."}
S['GameSummary'] = {'type': 'object', 'required': ['gameId', 'opponent', 'status', 'myAnswered', 'opponentAnswered', 'myPoints', 'resultSeen', 'createdAt'], 'properties': {
    'gameId': {'type': 'string'}, 'opponent': ref('QuizPlayer'), 'status': ref('GameStatus'),
    'myAnswered': {'type': 'integer'}, 'opponentAnswered': {'type': 'integer'},
    'myPoints': {'type': 'integer'},
    'opponentPoints': {'type': 'integer', 'description': 'Only once the game is finished.'},
    'outcome': ref('GameOutcome'),
    'resultSeen': {'type': 'boolean', 'description': 'False for a finished game whose result the caller has not acknowledged yet (always false while running).'},
    'createdAt': {'type': 'string', 'format': 'date-time'},
    'finishedAt': {'type': 'string', 'format': 'date-time'}}}
S['GameList'] = {'type': 'object', 'required': ['games'], 'properties': {
    'games': {'type': 'array', 'items': ref('GameSummary'), 'description': "The caller's games, newest first."},
    'next': {'type': 'string', 'description': 'The cursor of the next page; absent on the last page.'}}}
S['GameSide'] = {'type': 'object', 'required': ['userId', 'username', 'answered'], 'properties': {
    'userId': {'type': 'string'}, 'username': {'type': 'string'}, 'answered': {'type': 'integer'},
    'points': {'type': 'integer', 'description': "Always for the caller; for the opponent only once the game is finished."}}}
S['Game'] = {'type': 'object', 'required': ['gameId', 'status', 'questionCount', 'me', 'opponent', 'resultSeen', 'createdAt'], 'properties': {
    'gameId': {'type': 'string'}, 'status': ref('GameStatus'), 'questionCount': {'type': 'integer'},
    'me': ref('GameSide'), 'opponent': ref('GameSide'), 'outcome': ref('GameOutcome'),
    'resultSeen': {'type': 'boolean'},
    'createdAt': {'type': 'string', 'format': 'date-time'}, 'finishedAt': {'type': 'string', 'format': 'date-time'}}}
S['GameQuestion'] = {'type': 'object', 'required': ['index', 'text', 'answers'], 'properties': {
    'index': {'type': 'integer', 'description': '0-based; pass it back with the answer.'}, 'text': {'type': 'string'},
    'answers': {'type': 'array', 'items': {'type': 'string'}, 'description': "The options in the caller's own shuffled order, the same on every read; the correct one is not marked."}}}
S['GameAnswer'] = {'type': 'object', 'required': ['index', 'answer'], 'properties': {
    'index': {'type': 'integer', 'description': "The question's index: the caller's next unanswered question."},
    'answer': {'type': 'string', 'maxLength': 200, 'description': 'One of the options, exactly.'}}}
S['AnswerResult'] = {'type': 'object', 'required': ['correct', 'correctAnswer', 'pointsAwarded', 'points', 'answered', 'finished', 'position', 'events'], 'properties': {
    'correct': {'type': 'boolean'}, 'correctAnswer': {'type': 'string'},
    'pointsAwarded': {'type': 'integer', 'description': 'What this answer earned.'},
    'points': {'type': 'integer', 'description': "The caller's points in this game so far."},
    'answered': {'type': 'integer', 'description': 'Questions the caller has answered, this one included.'},
    'finished': {'type': 'boolean', 'description': 'Whether this answer finished the game.'},
    'position': POSITION, 'events': EVENTS}}
S['PlayerStats'] = {'type': 'object', 'required': ['username', 'played', 'won', 'lost', 'drawn'], 'properties': {
    'username': {'type': 'string'}, 'played': {'type': 'integer', 'description': 'Finished games.'},
    'won': {'type': 'integer'}, 'lost': {'type': 'integer'}, 'drawn': {'type': 'integer'}}}
S['LeaderboardEntry'] = {'type': 'object', 'required': ['username', 'won', 'played'], 'properties': {
    'username': {'type': 'string'}, 'won': {'type': 'integer'}, 'played': {'type': 'integer'},
    'lost': {'type': 'integer'}, 'drawn': {'type': 'integer'}}}
S['Leaderboard'] = {'type': 'object', 'required': ['players'], 'properties': {
    'players': {'type': 'array', 'items': ref('LeaderboardEntry'), 'description': 'Players with a finished game: most wins first, then the best win ratio, then username.'}}}

IDEM = {'$ref': '#/components/parameters/IdempotencyKey'}
P['/v1/quiz/questions'] = {'post': {
    'operationId': 'addQuizQuestion', 'tags': ['quiz', 'operators'], 'summary': 'Add a question to the bank (operator).',
    'description': 'Needs the operator token. The same text twice (ignoring case and spacing) is 409 question_exists. `logbook-admin quiz import FILE.json` adds a whole file.',
    'security': [{'operatorToken': []}], 'parameters': [IDEM],
    'requestBody': {'required': True, 'content': {'application/json': {'schema': ref('NewQuestion')}}},
    'responses': responses('201', json_body(ref('QuestionAdded'), 'The question joined the bank.'), ['400', '404', '409', '413', '422'])}}
P['/v1/quiz/games'] = {
    'post': {'operationId': 'createQuizGame', 'tags': ['quiz'], 'summary': 'Start a game of 10 random questions against a random or named player.',
             'description': 'The caller needs a username (409 username_required). Nobody else to play: 409 no_opponent. A named username nobody has: 404 player_not_found. Oneself: 422 cannot_challenge_yourself. Fewer than 10 questions in the bank: 409 not_enough_questions.',
             'security': BEARER, 'parameters': [IDEM],
             'requestBody': {'required': False, 'content': {'application/json': {'schema': ref('NewGame')}}},
             'responses': responses('201', json_body(ref('GameCreated'), 'The game, and who plays it.'), ['400', '404', '409', '413', '422'])},
    'get': {'operationId': 'listQuizGames', 'tags': ['quiz'], 'summary': "The caller's games, running and finished, newest first.",
            'security': BEARER, 'parameters': [{'$ref': '#/components/parameters/Limit'}, {'$ref': '#/components/parameters/Cursor'}],
            'responses': responses('200', json_body(ref('GameList'), 'One page.'), ['400'])}}
P['/v1/quiz/games/{gameId}'] = {'get': {
    'operationId': 'getQuizGame', 'tags': ['quiz'], 'summary': "A game's progress as the caller may see it.",
    'description': "Only the two players see a game (others: 404 game_not_found). The opponent's points appear once the game is finished.",
    'security': BEARER, 'parameters': [GAME_ID],
    'responses': responses('200', json_body(ref('Game'), 'The game.'), ['404'])}}
P['/v1/quiz/games/{gameId}/question'] = {'get': {
    'operationId': 'getQuizQuestion', 'tags': ['quiz'], 'summary': "The caller's next unanswered question, without its correct answer.",
    'description': '409 all_answered once the caller answered every question.',
    'security': BEARER, 'parameters': [GAME_ID],
    'responses': responses('200', json_body(ref('GameQuestion'), 'The question.'), ['404', '409'])}}
P['/v1/quiz/games/{gameId}/answers'] = {'post': {
    'operationId': 'answerQuizQuestion', 'tags': ['quiz'], 'summary': "Answer the caller's next question.",
    'description': 'In order, once per question: an earlier index is 409 already_answered, a later one 409 out_of_order; an answer that is not one of the options is 422 not_an_option. The answer that completes both players finishes the game.',
    'security': BEARER, 'parameters': [GAME_ID, IDEM],
    'requestBody': {'required': True, 'content': {'application/json': {'schema': ref('GameAnswer')}}},
    'responses': responses('201', json_body(ref('AnswerResult'), 'Whether it was right, and the right answer.'), ['400', '404', '409', '413', '422'])}}
P['/v1/quiz/games/{gameId}/result-seen'] = {'post': {
    'operationId': 'markQuizResultSeen', 'tags': ['quiz'], 'summary': "Acknowledge a finished game's result (idempotent).",
    'description': '409 game_not_finished while the game runs.',
    'security': BEARER, 'parameters': [GAME_ID, IDEM],
    'responses': {'204': {'description': 'Seen.'}, '401': {'$ref': '#/components/responses/Unauthorized'}, '400': problem(), '404': problem(), '409': problem(), 'default': problem()}}}
P['/v1/quiz/players/{username}'] = {'get': {
    'operationId': 'getQuizPlayer', 'tags': ['quiz'], 'summary': "A player's stats (finished games).",
    'security': BEARER, 'parameters': [{'name': 'username', 'in': 'path', 'required': True, 'description': 'Any case.', 'schema': {'type': 'string', 'maxLength': 100}}],
    'responses': responses('200', json_body(ref('PlayerStats'), 'The stats.'), ['404'])}}
P['/v1/quiz/leaderboard'] = {'get': {
    'operationId': 'getQuizLeaderboard', 'tags': ['quiz'], 'summary': 'The best players: most wins, then the best win ratio.',
    'security': BEARER, 'parameters': [{'$ref': '#/components/parameters/Limit'}],
    'responses': responses('200', json_body(ref('Leaderboard'), 'The leaderboard.'), ['400'])}}

json.dump(d, open(PATH, 'w'), indent=2, ensure_ascii=False)
open(PATH, 'a').write('\n')
